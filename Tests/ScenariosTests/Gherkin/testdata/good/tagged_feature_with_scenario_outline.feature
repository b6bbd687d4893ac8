@sometag
Feature: Foo

  Scenario Outline: Bar
    Then Baz

    Examples:
    | name |
    | X    |
    | Y    |
