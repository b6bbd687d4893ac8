Feature: Addition
Scenario: Add two numbers
  Given I have added
    ```