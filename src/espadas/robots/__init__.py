"""Robots: players that receive a view of the game and return an action."""

from espadas.robots.base import Robot
from espadas.robots.random_robot import RandomRobot

__all__ = ["RandomRobot", "Robot"]
