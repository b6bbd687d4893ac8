import AutomationSupport

/// Whether the process runs on a CI, from the variables the CIs sut-launch knows set (the same CIs as run ids
/// and `--shard auto`, and a few more): snapshots are never written there, whatever asked for it.
package enum ContinuousIntegration {
    /// The variables, each set by one CI (Jenkins, Bazel, Azure, TeamCity... set no `CI`).
    static let variables = [
        "CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "JENKINS_URL", "JENKINS_HOME", "BUILD_TAG",
        "TEST_SRCDIR", "TEST_TMPDIR", "TEST_TARGET", "TF_BUILD", "TEAMCITY_VERSION", "TRAVIS", "APPVEYOR",
        "BITBUCKET_BUILD_NUMBER", "DRONE", "CODEBUILD_BUILD_ID", "JOB_COMPLETION_INDEX",
    ]

    /// `JENKINS_URL` (the first variable found set: not empty, `0` or `false`), or nil off CI.
    package static func detected(_ environment: [String: String]) -> String? {
        variables.first { name in
            guard let value = environment[name]?.trimmingSpaces(), !value.isEmpty else { return false }
            return value != "0" && value.lowercased() != "false"
        }
    }
}
