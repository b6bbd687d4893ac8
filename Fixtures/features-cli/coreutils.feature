@cli
Feature: Coreutils through sut-launch
  Programs nobody here wrote, driven with files in and exact output out.

  Scenario: sort orders the lines of a file
    Given a file "input.txt" with:
      """
      pear
      apple
      fig
      """
    When I run "sort input.txt"
    Then the exit code is 0
    And the output is:
      """
      apple
      fig
      pear
      """

  Scenario: wc counts, with wildcards for what varies
    Given a file "data/words.txt" with:
      """
      one two three
      four
      """
    When I run "wc -w data/words.txt"
    Then the output is:
      """
      [..]4 data/words.txt
      """

  Scenario: a failing command's error output and exit code
    When I run "ls no-such-file"
    Then the exit code is 2
    And the error output is:
      """
      ls: cannot access 'no-such-file': No such file or directory
      """

  Scenario: a pipeline goes through sh, and files come from a fixture tree
    Given the files from "project"
    When I run "sh -c 'cat src/*.txt | tr a-z A-Z'"
    Then the output is:
      """
      ALPHA
      ...
      GAMMA
      """
    And the file "src/a.txt" exists
    And the file "missing.txt" does not exist

  Scenario: commands write files the next steps read
    When I run "sh -c 'echo done > out.log; echo more >> out.log'"
    Then the file "out.log" contains "done"
    And the file "out.log" is:
      """
      done
      more
      """
