@cli
Feature: Git and Python in a scenario's own world
  Each scenario has its own HOME, TMPDIR and XDG directories: nothing touches the real home.

  Scenario: git commits in a fresh repository
    When I run "git init -q repo"
    And I run "git -C repo -c user.name=Ada -c user.email=ada@example.com commit -q --allow-empty -m 'first commit'"
    And I run "git -C repo log --format=%s"
    Then the output is:
      """
      first commit
      """

  Scenario: HOME and TMPDIR point inside the scenario
    When I run "python3 -c 'import os; print(os.environ[\"HOME\"]); print(os.environ[\"TMPDIR\"]); print(os.environ[\"XDG_CONFIG_HOME\"])'"
    Then the output is:
      """
      [..]/sut-scenario-[..]/home
      [..]/sut-scenario-[..]/tmp
      [..]/sut-scenario-[..]/xdg/config
      """

  Scenario: a step's own environment wins over the isolation
    Given the environment variable "HOME" is "/nonexistent/home"
    When I run "sh -c 'echo $HOME'"
    Then the output is:
      """
      /nonexistent/home
      """

  Scenario: python3 adds numbers
    When I run "python3 -c 'import sys; print(sum(map(int, sys.argv[1:])))' 1 2 3"
    Then the output is:
      """
      6
      """
