"""Interactive tutorials, one per game: scripted deals that teach the rules step by step.

:mod:`cardtable.tutorials.script` reads the per-game scripts (data files of this
package); :mod:`cardtable.tutorials.runner` plays a learner through one on the real
engine.  Front ends: ``cardtable tutorial GAME`` (:mod:`cardtable.console.tutorial`)
and the browser's ``/tutorial/<game>`` page over ``/api/tutorials/…``
(:mod:`cardtable.server.tutorials`).
"""

from cardtable.tutorials.runner import Tutorial, Verdict
from cardtable.tutorials.script import Step, TutorialError, TutorialScript, load_tutorial, tutorial_games

__all__ = ["Step", "Tutorial", "TutorialError", "TutorialScript", "Verdict", "load_tutorial", "tutorial_games"]
