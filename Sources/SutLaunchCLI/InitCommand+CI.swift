/// The CI files `init` writes: the same text as the recipes in docs/ci.md (a test compares them), so what a user
/// copies from either is what the tests ran.
extension InitCommand {
    /// A 4-way GitHub Actions matrix, each shard uploading its Cucumber Messages, and a job merging them into one
    /// HTML report and one JUnit.
    static let githubWorkflow = """
        # Scenarios on 4 machines, one report. Copy into .github/workflows/scenarios.yml; sut-launch must be on
        # PATH (docs/ci.md: install once per machine). GitHub Actions sets no shard index: the matrix passes it.
        name: scenarios
        on: [push, pull_request]
        jobs:
          shard:
            runs-on: ubuntu-latest
            strategy:
              fail-fast: false
              matrix:
                shard: [1, 2, 3, 4]
            steps:
              - uses: actions/checkout@v4
              - run: sut-launch test --shard ${{ matrix.shard }}/4 --format github --messages shard-${{ matrix.shard }}.ndjson features
              - if: always()
                uses: actions/upload-artifact@v4
                with:
                  name: messages-${{ matrix.shard }}
                  path: shard-${{ matrix.shard }}.ndjson
          report:
            needs: shard
            if: always()
            runs-on: ubuntu-latest
            steps:
              - uses: actions/download-artifact@v4
                with:
                  pattern: messages-*
                  path: messages
                  merge-multiple: true
              - run: sut-launch report --html report.html --junit junit.xml messages/*.ndjson
              - if: always()
                uses: actions/upload-artifact@v4
                with:
                  name: scenarios-report
                  path: |
                    report.html
                    junit.xml

        """

    /// GitLab's `parallel:` equivalent: `--shard auto` reads CI_NODE_INDEX/CI_NODE_TOTAL.
    static let gitlabPipeline = """
        # Scenarios on 4 machines, one report. Merge into .gitlab-ci.yml; sut-launch must be on PATH.
        scenarios:
          parallel: 4
          script:
            - sut-launch test --shard auto --junit junit-$CI_NODE_INDEX.xml --messages messages-$CI_NODE_INDEX.ndjson features
          artifacts:
            when: always
            paths: [messages-*.ndjson]
            reports:
              junit: junit-*.xml
        scenarios-report:
          stage: .post
          when: always
          needs: [scenarios]
          script:
            - sut-launch report --html report.html --junit junit.xml messages-*.ndjson
          artifacts:
            when: always
            paths: [report.html, junit.xml]

        """
}
