/* SPDX-License-Identifier: MIT */
/* empty-preload: a shared library that defines nothing, the baseline of
   fastcopy-startup.  Preloading it costs what preloading any library costs
   (the dynamic loader opens, maps and relocates one more object, and every
   symbol lookup searches one more scope), so that libfastcopy's own share
   of a process start is what it adds on top (fastcopy-startup(1)).  */
