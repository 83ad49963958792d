/// Where a schema walk is in a value: the pointer it was given and the member names and
/// indices below it, written out as a JSON pointer only when a violation names the place
/// (most values have none, and every member of every body is walked).
struct ValuePath {
    enum Step {
        case key(String)
        case index(Int)
    }

    let prefix: String
    private var steps: [Step] = []

    init(prefix: String) {
        self.prefix = prefix
    }

    mutating func push(_ step: Step) {
        steps.append(step)
    }

    mutating func pop() {
        steps.removeLast()
    }

    /// The place as a JSON pointer: `/body/media/0/url`.
    var text: String {
        var text = prefix
        for step in steps {
            switch step {
            case .key(let key): text += "/" + key.jsonPointerEscaped
            case .index(let index): text += "/" + String(index)
            }
        }
        return text
    }

    /// The pointer of member `key` here.
    func text(adding key: String) -> String {
        text + "/" + key.jsonPointerEscaped
    }
}
