import AccordClientRuntime
import Testing

/// What the generated `API.responseTypes` and `API.fixtureCatalog` read from the routes:
/// the response type of each route that answers JSON, and each typed fixture once, in the
/// routes' order.
@Suite struct MockRouteCatalogTests {
    private static let routes = [
        MockRoute(id: "notes.get", method: .get, path: "/notes/{id}", requiresAuth: true, responseType: Note.self, answers: [
            MockRoute.Answer(name: "gone", role: .named, code: 4004, message: "没有这条笔记"),
            MockRoute.Answer.fixture("first", role: .matched, matchers: [.init(.params, "id", .equals("n1"))]) { Note(id: "n1", text: "一") },
            MockRoute.Answer(name: "custom", role: .named) { Note(id: "n3", text: "a test's own answer") },
            MockRoute.Answer.fixture("default", role: .fallback) { Note(id: "n2", text: "二") },
        ]),
        MockRoute(id: "notes.file", method: .get, path: "/notes/{id}/file", requiresAuth: true, answers: []),
        MockRoute(id: "auth.refresh", method: .post, path: "/auth/refresh", requiresAuth: false, responseType: Notes.Issued.self, answers: [
            MockRoute.Answer(name: "default", role: .fallback) { Notes.Issued(accessToken: "a", refreshToken: "r") },
        ]),
    ]

    @Test func theResponseTypesAreThoseOfTheRoutesThatAnswerJSON() {
        let types = Self.routes.responseTypes
        #expect(types.keys.sorted() == ["auth.refresh", "notes.get"])
        #expect(types["notes.get"].map(ObjectIdentifier.init) == ObjectIdentifier(Note.self))
        #expect(types["auth.refresh"].map(ObjectIdentifier.init) == ObjectIdentifier(Notes.Issued.self))
    }

    @Test func theCatalogHoldsEachTypedFixtureOnceInTheRoutesOrder() {
        let catalog = Self.routes.fixtureCatalog
        // Not the refusal, which has no value, nor an answer given as a plain value.
        #expect(catalog.map { "\($0.endpoint) \($0.name)" } == ["notes.get first", "notes.get default"])
        #expect(catalog.map { $0.value as? Note } == [Note(id: "n1", text: "一"), Note(id: "n2", text: "二")])
    }

    @Test func aFixtureAnswersWithItsValue() throws {
        let answer = MockRoute.Answer.fixture("first", role: .matched) { Note(id: "n1", text: "一") }
        #expect(answer.code == 0 && answer.role == .matched && answer.matchers.isEmpty)
        let value = try #require(answer.value)
        #expect(value() as? Note == Note(id: "n1", text: "一"))
    }
}
