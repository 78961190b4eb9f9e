"""Skills: the model, field rules, reading one SKILL.md, and walking roots."""
