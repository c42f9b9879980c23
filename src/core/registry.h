/* THE REGISTRY: every layer type, one line each, included twice by
 * layer.c (its declarations, then the list). The order is the order of the
 * stack description's sections (raid, lvm, luks, faults) and of the
 * layers' checks; the stack's own order is each layer's .order. Adding a
 * layer: its file in src/layers/, one line here, one in
 * src/layers/meson.build (docs/layers.md). No include guard: meant to be
 * included more than once, with SB_LAYER defined. */
SB_LAYER(loop)
SB_LAYER(disks)
SB_LAYER(md)
SB_LAYER(lvm)
SB_LAYER(luks)
SB_LAYER(fault)
SB_LAYER(integrity)
SB_LAYER(cache)
SB_LAYER(ext4)
SB_LAYER(xfs)
SB_LAYER(btrfs)
SB_LAYER(mount)
SB_LAYER(export)
