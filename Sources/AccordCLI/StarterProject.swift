import Foundation

/// The files `accord init` writes: a service file, one domain with a list, a detail
/// and a create endpoint, their fixtures and one scenario, in either style. Each is
/// checked by a test: `accord lint` is clean, `accord serve` answers and the generated
/// Swift compiles.
struct StarterProject {
    /// How the starter's API answers.
    enum Style: String, CaseIterable {
        /// Bare JSON answers, problem+json errors, an API key, no signing.
        case plain
        /// `{code, msg, data}` envelopes, signed requests, bearer tokens with a refresh.
        case envelope
    }

    /// One file, by its path below the project's directory.
    struct File {
        var path: String
        var contents: String
    }

    let style: Style

    var files: [File] {
        switch style {
        case .plain:
            [File(path: "contracts/service.yaml", contents: Self.plainService), File(path: "contracts/books.yaml", contents: Self.books(codes: "404", invalid: "422")),
             File(path: "mocks/books.yaml", contents: Self.plainFixtures), File(path: "mocks/scenarios/book-missing.yaml", contents: Self.scenario(code: "not-found"))]
        case .envelope:
            [File(path: "contracts/service.yaml", contents: Self.envelopeService), File(path: "contracts/auth.yaml", contents: Self.auth),
             File(path: "contracts/books.yaml", contents: Self.books(codes: "4004", invalid: "1000")),
             File(path: "mocks/books.yaml", contents: Self.envelopeFixtures), File(path: "mocks/scenarios/token-expiry.yaml", contents: Self.scenario(code: "token-expired"))]
        }
    }

    private static let plainService = """
        # The service-wide part of the contract: a plain REST API. A success answers the
        # endpoint's type itself; an error is an HTTP status with a problem document.
        service:
          name: bookshelf
          title: Bookshelf API
          version: 0.1.0
          base_path: /v1
          envelope: none

        errors:
          media_type: application/problem+json
          body: Problem

        # Endpoints that need auth take one of these keys in X-API-Key.
        auth:
          api_key: {header: X-API-Key, keys: [dev-key]}

        validation:
          status: 422

        # Keyed by HTTP status; the flows (logout, refresh-and-retry, ban, alert) drive the client.
        codes:
          401: {name: force-logout, msg: Unauthorized, flow: logout}
          404: {name: not-found, msg: Not found}
          422: {name: invalid-request, msg: Invalid request}

        types:
          Problem:
            description: An RFC 9457 problem document.
            fields:
              type: string
              title: string
              status: int
              detail: {type: string, optional: true}
              error: {type: string, optional: true, description: the kind of refusal}
              violations: {type: '[Violation]', optional: true}

          Violation:
            description: One way a request broke the contract.
            fields:
              pointer: string
              expected: string
              actual: string
              message: string

        """

    private static let envelopeService = """
        # The service-wide part of the contract: every answer is {code, msg, data}, code 0
        # is success; requests are signed (X-Sign) and carry a bearer token.
        service:
          name: bookshelf
          title: Bookshelf API
          version: 0.1.0
          base_path: /api/v1
          envelope: {code: code, msg: msg, data: data}

        # X-Sign = md5(app_key + timestamp + nonce + sorted_params + app_secret), lowercase hex.
        signing:
          algorithm: md5
          parts: [app_key, timestamp, nonce, sorted_params, app_secret]
          apps:
            dev_app_key: dev_app_secret
          window: 300s
          nonce_ttl: 600s

        auth:
          access_ttl: 2h
          refresh_ttl: 30d
          login: [auth.login]
          refresh: auth.refresh

        validation:
          violation_code: 1000

        codes:
          1000: {name: invalid-request, msg: Invalid request, http: 400}
          1001: {name: signature-invalid, msg: Bad signature}
          1002: {name: token-expired, msg: Session expired, flow: refresh-and-retry}
          1005: {name: token-invalid, msg: Session invalid, flow: refresh-and-retry}
          1006: {name: force-logout, msg: Signed in elsewhere, flow: logout}
          1007: {name: refresh-invalid, msg: Please sign in again, flow: logout}
          4004: {name: not-found, msg: Not found}

        """

    private static let auth = """
        domain: auth
        description: Signing in and rotating tokens.

        types:
          Session:
            fields:
              access_token: string
              refresh_token: string
              access_expires_in: int
              refresh_expires_in: int

        endpoints:
          auth.login:
            route: POST /auth/login
            summary: Sign in
            auth: none
            body:
              email: {type: string, min_length: 3}
              password: {type: string, min_length: 1}
            response: Session
            examples:
              default:
                body: {email: reader@example.com, password: secret}
                response: {access_token: at_1, refresh_token: rt_1, access_expires_in: 7200, refresh_expires_in: 2592000}

          auth.refresh:
            route: POST /auth/refresh
            summary: Rotate the tokens
            auth: none
            body:
              refresh_token: string
            response: Session
            codes: [1007]
            examples:
              default:
                body: {refresh_token: rt_1}
                response: {access_token: at_2, refresh_token: rt_2, access_expires_in: 7200, refresh_expires_in: 2592000}

        """

    /// The books domain, with the code of a missing book and of a refused request.
    private static func books(codes missing: String, invalid: String) -> String {
        booksTemplate.replacingOccurrences(of: "MISSING_CODE", with: missing).replacingOccurrences(of: "INVALID_CODE", with: invalid)
    }

    private static let booksTemplate = """
        domain: books
        description: The books on the shelf.

        types:
          Book:
            fields:
              id: string
              title: {type: string, min_length: 1, max_length: 200}
              author: string
              year: {type: int, min: 0, max: 3000, optional: true}

          BookPage:
            fields:
              items: '[Book]'
              next_cursor: {type: string, optional: true, description: absent on the last page}

        endpoints:
          books.list:
            route: GET /books
            summary: The books, a page at a time
            auth: none
            query:
              cursor: {type: string, optional: true}
              limit: {type: int, min: 1, max: 100, optional: true}
            response: BookPage
            examples:
              default:
                response:
                  items:
                    - {id: b_1, title: Dune, author: Frank Herbert, year: 1965}

          books.get:
            route: GET /books/{book_id}
            summary: One book
            params:
              book_id: {type: string, pattern: 'b_[0-9a-z]+'}
            response: Book
            codes: [MISSING_CODE]
            examples:
              default:
                params: {book_id: b_1}
                response: {id: b_1, title: Dune, author: Frank Herbert, year: 1965}

          books.create:
            route: POST /books
            summary: Put a book on the shelf
            body:
              title: {type: string, min_length: 1, max_length: 200}
              author: string
              year: {type: int, min: 0, max: 3000, optional: true}
            response: Book
            codes: [INVALID_CODE]
            examples:
              default:
                body: {title: Emma, author: Jane Austen, year: 1815}
                response: {id: b_2, title: Emma, author: Jane Austen, year: 1815}

        """

    private static let plainFixtures = """
        # Fixtures: the first whose `when` matches answers, else the `default: true` one,
        # else the contract's example. A plain API answers an error with its status.
        books.get:
          - name: missing
            when: {params: {book_id: b_missing}}
            status: 404
            data: {type: 'about:blank', title: Not found, status: 404, detail: no book b_missing}
          - name: any-book
            default: true
            data: {id: '{{request.path.book_id}}', title: Dune, author: Frank Herbert, year: 1965}

        books.create:
          - name: created
            default: true
            data: {id: 'b_{{seq}}', title: '{{request.body.title}}', author: '{{request.body.author}}'}

        """

    private static let envelopeFixtures = """
        # Fixtures: the first whose `when` matches answers, else the `default: true` one,
        # else the contract's example. A business code is answered with `code:`.
        books.get:
          - name: missing
            when: {params: {book_id: b_missing}}
            code: 4004
          - name: any-book
            default: true
            data: {id: '{{request.path.book_id}}', title: Dune, author: Frank Herbert, year: 1965}

        books.create:
          - name: created
            default: true
            data: {id: 'b_{{seq}}', title: '{{request.body.title}}', author: '{{request.body.author}}'}

        """

    /// A scenario: the book's detail answers `code` once, then as usual.
    private static func scenario(code: String) -> String {
        """
        description: >
          The detail of a book answers \(code) once (as the app should show it), then the
          fixture; start it with POST /__accord/scenarios/\(code == "not-found" ? "book-missing" : "token-expiry")/start.
        steps:
          - endpoint: books.get
            respond: \(code)
          - endpoint: books.get

        """
    }
}
