import AccordMockState
import Testing

/// The token of an `Authorization`-style header: the scheme byte for byte, one space,
/// then at least one byte of token, taken as it is.
struct TokenHeaderTests {
    @Test(arguments: [
        ("Bearer abc", "Bearer", "abc"),
        ("Bearer  abc", "Bearer", " abc"),
        ("Bearer 中文令牌", "Bearer", "中文令牌"),
        ("Token t", "Token", "t"),
        ("中 t", "中", "t"),
    ] as [(String, String, String)])
    func takesTheTokenAfterTheSchemeAndOneSpace(header: String, scheme: String, token: String) {
        #expect(TokenStore.token(in: header, scheme: scheme) == token)
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "bearer abc", "BEARER abc", "Bearerabc", "Basic abc", "Be", "Bearer\u{301} abc",
                      "\u{0}Bearer abc", "Bearer\tabc"] as [String?])
    func findsNoneInAnythingElse(header: String?) {
        #expect(TokenStore.token(in: header, scheme: "Bearer") == nil)
    }
}
