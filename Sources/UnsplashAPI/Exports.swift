// The HTTP port and its URLSession adapter are shared by every photo source; Unsplash's users see them
// through this module as before.
@_exported import HTTPTransport
