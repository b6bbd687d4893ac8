not gherkin

