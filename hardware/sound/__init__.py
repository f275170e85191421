"""The buzzer: short sounds that tell a noisy table an action was taken or refused."""
