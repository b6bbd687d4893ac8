// MyAppCLI's backend client: URLSession against the mock server's URL (the seed toolkit's demo: fetch
// /message as text and /image as bytes, and print them).
import AutomationHost
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum Backend {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The backend's base URL: the mock server's when one runs, else the production one.
    static var baseURL: URL {
        AutomationBridge.shared.mockServerURL ?? URL(string: "https://api.example.com")!
    }

    /// GETs a path and returns status and body.
    static func get(_ path: String) throws -> (status: Int, body: Data) {
        try request(path, method: "GET", body: nil)
    }

    /// Sends a request and waits for the answer (a command-line program has nothing else to do meanwhile).
    static func request(
        _ path: String, method: String, body: Data?, contentType: String = "application/json",
        query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) throws -> (status: Int, body: Data) {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<(Int, Data), any Error> = .failure(Failure(description: "no answer"))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else {
                result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }
            semaphore.signal()
        }.resume()
        semaphore.wait()
        return try result.get()
    }
}
