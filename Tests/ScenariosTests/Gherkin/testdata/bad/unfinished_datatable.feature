Feature: Addition
Scenario: Add two numbers
	When I press
		| foo |
		| bar