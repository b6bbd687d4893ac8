	# All lines in this feature file except the last start and end with a tab	
	
	Feature: Minimal	
	
	Scenario: minimalistic	
	
	  Given the minimalism	
