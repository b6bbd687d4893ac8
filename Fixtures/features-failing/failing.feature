# Kept out of the default run: each scenario fails on purpose, to show what a failure looks like
# (sut-launch test -D PROGRAM=.build/debug/MyAppCLI Fixtures/features-failing).
Feature: Failures on purpose

  Scenario: The expected text never appears
    When I launch the program with "greet"
    Then I see "goodbye, world"

  Scenario: A step that is not in the catalog
    When I launch the program with "greet"
    Then I should see "hello, world"

  Scenario: The program asks the backend for something no route answers
    Given the route "GET /message" answers 200
    And unexpected requests fail the scenario
    When I launch the program with "fetch"
    Then the exit code is 0
