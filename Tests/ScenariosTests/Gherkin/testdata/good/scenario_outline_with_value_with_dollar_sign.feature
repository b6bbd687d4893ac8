Feature: Scenario Outline with a value with a dollar sign ($)

Scenario Outline: minimalistic
    Given the <what>

Examples:
  | what     |
  | pa$$word |
