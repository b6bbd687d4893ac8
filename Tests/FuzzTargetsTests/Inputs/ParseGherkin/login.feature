@login
Feature: Login
  MyAppCLI logs a user in: from a flag, from a name typed at its prompt, or against the backend.

  Background:
    Given the stubs "stubs/login.json"

  @smoke
  Scenario: A returning user is logged in without a prompt
    Given the feature flag "skipPreActiveCheck" is "true"
    And the automation flag "simulateUserAlreadyLoggedIn" is "true"
    When I launch the program with "login"
    Then I see "pre-active check: skipped"
    And I see "already logged in as test-user"
    And I do not see "username:"
    And the exit code is 0

  Scenario: A new user types a name at the prompt
    When I launch the program with "login"
    Then I see "username:"
    And the program is still running
    When I type "ada"
    Then I see "logged in as ada"
    And the exit code is 0

  Scenario: An empty name cancels the login
    When I launch the program with "login"
    And I close the input
    Then I see "login cancelled"
    And the program exits with code 1

  @backend
  Scenario: The backend fails once, then lets the user in
    Given the automation flags:
      | simulateUserAlreadyLoggedIn | true |
      | userName                    | ada  |
    And unexpected requests fail the scenario
    When I launch the program with "backend-login"
    Then I see "login: server error 500, retrying"
    And I see a line matching "login: 200 .*t0k3n"
    And the exit code is 0
    And the server received 2 requests to "POST /login"
    And the server received a request to "POST /login" with header "Content-Type" "application/json"
    And the server received a request to "POST /login" with JSON body:
      """
      { "user": "ada" }
      """
    And the server received no unexpected requests

  Scenario Outline: Greetings follow the feature flag
    Given the feature flag "greeting" is "<greeting>"
    When I launch the program with "greet"
    Then I see "<greeting>, world"

    Examples:
      | greeting |
      | hi       |
      | ciao     |
