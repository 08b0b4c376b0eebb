// The service's icon, inline in its pages (their CSP allows data: images), so that browsers do
// not ask for /favicon.ico, which the service does not have.
export const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='32' height='32' viewBox='0 0 32 32'%3E" +
  "%3Crect width='32' height='32' rx='7' fill='%23c4302b'/%3E" +
  "%3Cpath d='M12 9v14l11-7z' fill='%23fff'/%3E%3C/svg%3E";
