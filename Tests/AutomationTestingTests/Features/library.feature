Feature: Steps written in Swift

  Scenario: A greeting chosen by a Swift step
    Given the greeting is "ciao"
    When I launch the program with "greet"
    Then I see "ciao, world"
    And the output has 2 lines

  Scenario Outline: Numbers arrive typed
    Given a file "n.txt" holding <n> lines
    When I run "wc -l n.txt"
    Then I see "<n> n.txt"

    Examples:
      | n  |
      | 3  |
      | 12 |
