@cli
Feature: Coreutils through sut-launch
  The README's example, run as written by the end-to-end tests.

  Scenario: sort orders the lines of a file
    Given a file "input.txt" with:
      """
      pear
      apple
      """
    When I run "sort input.txt"
    Then the exit code is 0
    And the output is:
      """
      apple
      pear
      """

  Scenario: wc counts, with wildcards for what varies
    Given the files from "project"
    When I run "sh -c 'cat src/*.txt | wc -l'"
    Then the output is:
      """
      [..]3
      """
    And the output matches the snapshot "line-count"
