// UIKit Dynamics on Chipmunk2D.
