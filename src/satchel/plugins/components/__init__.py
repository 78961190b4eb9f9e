"""What plugins carry, read into frozen values: skills, commands, agents, servers and more."""
