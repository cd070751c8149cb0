#!/usr/bin/env python3
"""The rlottie peer of issue 42's 300-rectangle row: plays a Lottie file that
`kinetic render SCENE -o x.json` exported, rendering every frame at the given pixel size
into rlottie's buffer and discarding it (as `kinetic render --discard` does).

    PYTHONPATH=.build/lottie-py python3 rlottie-frames.py X.json WIDTH HEIGHT FRAMES
    PYTHONPATH=.build/lottie-py python3 rlottie-frames.py X.json WIDTH HEIGHT --png N OUT.png

FRAMES is Kinetic's frame count: rlottie's own total counts the out point too (op − ip + 1),
one frame more than Kinetic renders.

--png N OUT.png writes frame N as a PNG (through Pillow) instead of timing anything: the
picture check that rlottie draws the same frame. rlottie-python comes from `make lottie-py`.
"""
import sys
from rlottie_python import LottieAnimation

def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    anim = LottieAnimation.from_file(path)
    if len(sys.argv) == 7 and sys.argv[4] == "--png":
        anim.render_pillow_frame(frame_num=int(sys.argv[5]), width=width, height=height).save(sys.argv[6])
        return
    frames = int(sys.argv[4])
    for k in range(frames):
        anim.lottie_animation_render(frame_num=k, width=width, height=height)
    print(frames)

if __name__ == "__main__":
    main()
