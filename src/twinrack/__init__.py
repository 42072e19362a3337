"""TwinRack: Siamese Mah Jongg."""

__version__ = "0.1.0"
