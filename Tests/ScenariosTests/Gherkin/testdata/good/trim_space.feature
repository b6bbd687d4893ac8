 # All lines in this feature file except the last start and end with a space 
 
 Feature: Minimal 
 
 Scenario: minimalistic 
 
   Given the minimalism 
