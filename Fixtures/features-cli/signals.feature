@cli
Feature: Signals reach the running program
  Scenario: INT runs the program's trap
    Given the program "sh"
    When I launch the program with "-c 'trap \"echo got INT; exit 3\" INT; echo ready; while true; do sleep 0.1; done'"
    Then I see "ready" within 5s
    When I send the signal "INT"
    Then I see "got INT" within 5s
    And the exit code is 3

  Scenario: KILL ends it with 137
    Given the program "sleep"
    When I launch the program with "30"
    And I send the signal "KILL"
    Then the exit code is 137 within 5s

  Scenario: nothing appears while the program is quiet
    Given the program "sh"
    When I launch the program with "-c 'sleep 0.3; echo late'"
    Then I do not see "late" within 100ms
    And I see "late" within 5s
