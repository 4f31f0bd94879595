"""Web Bot Auth: is a request's HTTP message signature (RFC 9421) valid under a key directory?

Pure: no I/O and no third-party package. The Ed25519 check itself is passed
in (`model.Ed25519Check`), so this runs under Pyodide; the edge module
`robotscope.webbotauth` passes the `cryptography` library's.

- `model`: the request, the limits, the reasons and the verdict, as data.
- `keys`: JWK thumbprints (RFC 7638) and the key directory (a JWKS).
- `base`: the covered components' values and the signature base (RFC 9421, Section 2).
- `verify`: the checks of draft-ietf-webbotauth-httpsig-protocol over each signature.
"""
