/**
 * How the Review screen draws the document: zoomed to fit its box, or at 100% or 200% of its own size
 * (scrolling), and turned by quarter turns. Turning only changes how it is drawn, never the stored file.
 */
export const ZOOM_LEVELS = ['fit', 1, 2] as const;
export type Zoom = (typeof ZOOM_LEVELS)[number];
export type Rotation = 0 | 90 | 180 | 270;

/** Z: fit → 100% → 200% → fit. */
export function nextZoom(zoom: Zoom): Zoom {
  const index = ZOOM_LEVELS.indexOf(zoom);
  return ZOOM_LEVELS[(index + 1) % ZOOM_LEVELS.length] ?? 'fit';
}

/** T: a quarter turn clockwise. */
export const nextRotation = (rotation: Rotation): Rotation => ((rotation + 90) % 360) as Rotation;

export const zoomWords = (zoom: Zoom): string => (zoom === 'fit' ? 'Fit' : `${zoom * 100}%`);

export const rotationWords = (rotation: Rotation): string => (rotation === 0 ? 'Upright' : `Turned ${rotation}°`);

export interface Size {
  width: number;
  height: number;
}

/**
 * The size to draw the image at (before turning it) and the size of the box it takes once turned:
 * at 'fit' the turned image fills as much of the frame as it can, at most four times its own size.
 */
export function imageLayout(natural: Size, frame: Size, zoom: Zoom, rotation: Rotation): { image: Size; box: Size } {
  const sideways = rotation === 90 || rotation === 270;
  const turned = sideways ? { width: natural.height, height: natural.width } : natural;
  const scale =
    zoom === 'fit'
      ? Math.min(4, frame.width / Math.max(1, turned.width), frame.height / Math.max(1, turned.height))
      : zoom;
  const image = { width: Math.round(natural.width * scale), height: Math.round(natural.height * scale) };
  const box = sideways ? { width: image.height, height: image.width } : image;
  return { image, box };
}
