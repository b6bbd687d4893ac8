@cli
Feature: Snapshots
  Output and files compared with stored text in __snapshots__/snapshots.feature/.

  Scenario: sorted output matches its snapshot
    Given a file "input.txt" with:
      """
      b
      c
      a
      """
    When I run "sort -r input.txt"
    Then the output matches the snapshot "reverse-sorted"

  Scenario: a written file matches its snapshot
    When I run "sh -c 'printf \"name,count\nada,3\n\" > report.csv'"
    Then the file "report.csv" matches the snapshot "report"
