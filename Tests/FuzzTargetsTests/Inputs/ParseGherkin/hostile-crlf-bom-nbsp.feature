# language: fr
Fonctionnalité: f
  Scénario: s
	Soit a
    Soit b

