Feature: Whitespace in tags

  @a tag containing whitespace
  Scenario: minimalistic
