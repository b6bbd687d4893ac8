import AutomationSupport

/// Whether the process runs on a CI, from the variables the CIs sut-launch knows set (the same CIs as run ids
/// and `--shard auto`, and a few more): snapshots are never written there, whatever asked for it.
package enum ContinuousIntegration {
    /// The variables, each set by one CI (Jenkins, Bazel, Azure, TeamCity... set no `CI`).
    static let variables = [
        "CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "JENKINS_URL", "JENKINS_HOME",
        "HUDSON_URL", "BUILD_TAG", "TEST_SRCDIR", "TEST_TMPDIR", "TEST_TARGET", "TF_BUILD", "TEAMCITY_VERSION", "TRAVIS", "APPVEYOR",
        "BITBUCKET_BUILD_NUMBER", "DRONE", "CODEBUILD_BUILD_ID", "JOB_COMPLETION_INDEX", "GO_PIPELINE_NAME", "bamboo_buildKey",
        "SEMAPHORE", "WOODPECKER", "HARNESS_BUILD_ID", "CF_BUILD_ID",
    ]

    /// The variables whose value says yes or no (`CI=false` is no CI). The others are names, ids and counters: any
    /// value counts (a Kubernetes Indexed Job's first index is `0`).
    static let flags: Set = [
        "CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TF_BUILD", "TRAVIS", "APPVEYOR", "DRONE",
        "SEMAPHORE", "WOODPECKER",
    ]

    /// `JENKINS_URL` (the first variable found set: not empty, and for a yes-or-no one not `0` or `false`), or nil
    /// off CI.
    package static func detected(_ environment: [String: String]) -> String? {
        variables.first { name in
            guard let value = environment[name]?.trimmingSpaces(), !value.isEmpty else { return false }
            return !flags.contains(name) || (value != "0" && value.lowercased() != "false")
        }
    }
}
