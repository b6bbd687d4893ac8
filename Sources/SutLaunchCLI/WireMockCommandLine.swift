import AutomationSupport
import ProcessEngine

/// WireMock 2.35's standalone command line, read by `serve` so that a WireMock invocation works with the binary's
/// name swapped: `--root-dir`, `--bind-address` and `--max-request-journal-entries` are `serve`'s own options
/// (``ServeOption``); the ones that are this server's behaviour already are accepted as they are, and the ones that
/// mean nothing here are accepted with one notice each, never silently.
enum WireMockCommandLine {
    /// Switches that describe what this server does anyway.
    static let alreadySo: Set<String> = [
        "--local-response-templating", "--verbose", "--disable-banner", "--disable-gzip", "--disable-request-logging",
        "--disable-strict-http-headers", "--disable-optimize-xml-factories-loading",
    ]

    /// WireMock options with no meaning here, whether each takes a value, and why it has no effect.
    static let ignored: [String: (takesValue: Bool, why: String)] = [
        "--https-port": (true, "this server has one port: --https serves it over TLS"),
        "--https-keystore": (true, "Java keystores are not read: --https-cert FILE --https-key FILE serve PEM files"),
        "--keystore-type": (true, "Java keystores are not read"), "--keystore-password": (true, "Java keystores are not read"),
        "--key-manager-password": (true, "Java keystores are not read"),
        "--https-truststore": (true, "client certificates are not asked for"),
        "--truststore-type": (true, "client certificates are not asked for"),
        "--truststore-password": (true, "client certificates are not asked for"),
        "--https-require-client-cert": (false, "client certificates are not asked for"),
        "--ca-keystore": (true, "--https mints its own authority"), "--ca-keystore-password": (true, "--https mints its own authority"),
        "--ca-keystore-type": (true, "--https mints its own authority"),
        "--container-threads": (true, "each connection has a thread of its own, up to the connection cap"),
        "--jetty-acceptor-threads": (true, "there is no Jetty"), "--jetty-accept-queue-size": (true, "there is no Jetty"),
        "--jetty-header-buffer-size": (true, "there is no Jetty"), "--jetty-header-request-size": (true, "there is no Jetty"),
        "--jetty-header-response-size": (true, "there is no Jetty"), "--jetty-stop-timeout": (true, "there is no Jetty"),
        "--jetty-idle-timeout": (true, "there is no Jetty"),
        "--async-response-enabled": (true, "answers are written by their connection's thread"),
        "--async-response-threads": (true, "answers are written by their connection's thread"),
        "--max-template-cache-entries": (true, "templates are compiled once, when loaded"),
        "--print-all-network-traffic": (false, "the console shows each request's line and answer (-q turns it off)"),
        "--extensions": (true, "Java extensions cannot be loaded"),
        "--enable-stub-cors": (false, "CORS headers are not added: give them in the mapping's response"),
        "--logged-response-body-size-limit": (true, "the journal keeps at most 64 KiB of each body"),
        "--load-resources-from-classpath": (true, "there is no classpath: give a --root-dir"),
        "--no-request-journal": (false, "the journal is kept: the run's checks count requests from it"),
        "--disable-http": (false, "this server has one port"),
        "--match-headers": (true, "recordings match on headers named with --capture-header"),
        "--proxy-via": (true, "not available: --proxy-all forwards to its URL as given"),
        "--preserve-host-header": (false, "not available: --proxy-all forwards to its URL as given"),
        "--enable-browser-proxying": (false, "use --intercept HOST: the listed hosts are answered from the mappings"),
        "--trust-all-proxy-targets": (false, "not available: --proxy-all forwards to its URL as given"),
        "--trust-proxy-target": (true, "not available: --proxy-all forwards to its URL as given"),
        "--allow-proxy-targets": (true, "not available: --proxy-all forwards to its URL as given"),
        "--deny-proxy-targets": (true, "not available: --proxy-all forwards to its URL as given"),
        "--proxy-pass-through": (true, "not available: --proxy-all forwards to its URL as given"),
        "--proxy-timeout": (true, "not available: --proxy-all forwards to its URL as given"),
        "--admin-api-basic-auth": (true, "the admin API keeps to this machine and refuses other sites' pages instead"),
        "--admin-api-require-https": (false, "the admin API is served on the one port, over TLS with --https"),
        "--use-chunked-encoding": (true, "answers carry Content-Length; a mapping's chunkedDribbleDelay sends slowly"),
        "--timeout": (true, "answers are not cut short; clients set their own timeouts"),
    ]

    /// The ignored options WireMock reads every value of (jopt-simple's `valuesOf`); any other it refuses twice.
    static let repeatable: Set<String> = ["--trust-proxy-target"]

    /// `arguments` with WireMock's options made `serve`'s, and one notice per option that has no effect here. An
    /// ignored option that takes a value takes the next argument as WireMock does (`--https-port 8443`), and its
    /// notice says which: it is not read as a stub file.
    /// - Throws: ``UsageError`` when such an option has no value after it.
    static func translate(_ arguments: [String]) throws(UsageError) -> (arguments: [String], notices: [String]) {
        var result: [String] = []
        var ignoredGiven: [(name: String, values: [String])] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            let (name, attached) = split(argument)
            if alreadySo.contains(name) {
                continue
            } else if let ignored = ignored[name] {
                var value = attached
                if ignored.takesValue && value == nil {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError(.missingValue(name, placeholder: "VALUE"))
                    }
                    value = arguments[index]
                    index += 1
                }
                // An empty value is none (`--container-threads=`), as for every other option.
                if ignored.takesValue && value?.isEmpty != false { throw UsageError(.missingValue(name, placeholder: "VALUE")) }
                let shown = ignored.takesValue ? value.map { [String($0.prefix(80)).escapingControlCharacters()] } ?? [] : []
                if let at = ignoredGiven.firstIndex(where: { $0.name == name }) {
                    // Given twice, a value option is refused as WireMock's parser refuses it: the last never silently wins.
                    if let first = ignoredGiven[at].values.first, let second = shown.first, !repeatable.contains(name) {
                        throw UsageError(.givenTwice(name, first: "\(name) \(first)", second: "\(name) \(second)"))
                    }
                    ignoredGiven[at].values += shown
                } else {
                    ignoredGiven.append((name, shown))
                }
            } else {
                result.append(argument)
            }
        }
        let notices = ignoredGiven.map { given in
            let taken =
                given.values.isEmpty ? "" : " (its value \(given.values.joined(separator: ", ")) is taken with it, as WireMock takes it)"
            return "\(given.name) has no effect in sut-launch serve: \(ignored[given.name]!.why)\(taken)"
        }
        return (result, notices)
    }

    /// `--name=value` as name and value; `--name` alone as name and nil.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
