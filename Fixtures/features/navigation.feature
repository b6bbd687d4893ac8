Feature: Navigation, control messages and the backend

  Scenario: Start at the search screen
    Given the entry point "search"
    When I launch the program with "start"
    Then I see "screen: search"
    And the exit code is 0

  Scenario: The test sends control messages while the program runs
    Given the route "GET /health" answers 200
    When I launch the program with "listen"
    Then I see "listening for control messages"
    And the program is still running
    When I send the control message "refresh"
    Then I see "control: refresh"
    And the program replies "on albums" to the control message "entryPoint albums"
    And I see "screen: albums"
    When the program acknowledges the control message "quit"
    Then the program finishes within 5s
    And the exit code is 0

  @smoke
  Scenario: The seed demo fetches a message and an image
    Given the stubs "../stubs/demo.json"
    When I launch the program with "fetch"
    Then I see "message: 200 Hello world"
    And I see a line matching "image: 200 17 bytes, starts 89504e47"
    And the exit code is 0
    And the server received 1 request to "GET /message"

  Rule: Inline routes answer what the scenario says

    Scenario: An inline route with a JSON body
      Given the route "GET /message" answers 200 with:
        """
        Hello from the scenario
        """
      And the route "GET /image" answers 404
      And the environment variable "LANG" is "C"
      When I launch the program with "fetch"
      Then I see "message: 200 Hello from the scenario"
      And I see "image: 404"
      And the exit code is 1
