import { FileWarning, LoaderCircle, RotateCcw, RotateCw, ZoomIn } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useDocumentFile } from '@/components/document-viewer';
import { Button } from '@/components/ui/button';
import { imageLayout, rotationWords, zoomWords, type Rotation, type Size, type Zoom } from '../file-view';
import { Kbd } from './kbd';

/** The frame's inner size, followed as the window changes. */
function useFrameSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setSize({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** The PDF viewer's own open parameters: the whole page, or a zoom in percent. */
const pdfFragment = (zoom: Zoom): string => (zoom === 'fit' ? '#view=Fit' : `#zoom=${zoom * 100}`);

function FileDrawing({ url, kind, label, zoom, rotation, frame }: { url: string; kind: 'pdf' | 'image'; label: string; zoom: Zoom; rotation: Rotation; frame: Size }) {
  const [natural, setNatural] = useState<Size | null>(null);
  const sideways = rotation === 90 || rotation === 270;
  // A PDF is drawn by the browser's own viewer, which zooms itself: the frame is turned as a whole.
  const layout =
    kind === 'pdf'
      ? { image: sideways ? { width: frame.height, height: frame.width } : frame, box: frame }
      : natural
        ? imageLayout(natural, frame, zoom, rotation)
        : null;
  const style = layout
    ? {
        width: layout.image.width,
        height: layout.image.height,
        transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
      }
    : { transform: 'translate(-50%, -50%)' };
  return (
    <div className="relative m-auto shrink-0" style={layout ? { width: layout.box.width, height: layout.box.height } : { width: '100%', height: '100%' }}>
      {kind === 'pdf' ? (
        <iframe key={zoom} src={`${url}${pdfFragment(zoom)}`} title={label} className="absolute top-1/2 left-1/2 bg-white" style={style} />
      ) : (
        <img
          src={url}
          alt={label}
          className="absolute top-1/2 left-1/2 max-w-none"
          style={style}
          onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
        />
      )}
    </div>
  );
}

/**
 * The document under review, as large as the screen allows: PDFs in the browser's viewer, images drawn here,
 * zoomed (Z) and turned (T) for reading only. Its file is read once per document.
 */
export function ReviewFileView({
  documentId,
  fileName,
  zoom,
  rotation,
  onZoom,
  onRotate,
}: {
  documentId: string;
  fileName: string;
  zoom: Zoom;
  rotation: Rotation;
  onZoom: () => void;
  onRotate: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Document view">
        <Button variant="outline" className="h-11 sm:h-9" onClick={onZoom} aria-keyshortcuts="Z" data-testid="review-zoom">
          <ZoomIn aria-hidden="true" />
          Zoom: {zoomWords(zoom)}
          <Kbd>Z</Kbd>
        </Button>
        <Button variant="outline" className="h-11 sm:h-9" onClick={onRotate} aria-keyshortcuts="T" data-testid="review-rotate">
          <RotateCw aria-hidden="true" />
          Turn
          <Kbd>T</Kbd>
        </Button>
        <span className="text-sm text-muted-foreground" data-testid="review-rotation">
          {rotationWords(rotation)}
        </span>
      </div>
      <FileFrame key={`${documentId}:${attempt}`} documentId={documentId} fileName={fileName} zoom={zoom} rotation={rotation} onRetry={() => setAttempt((n) => n + 1)} />
    </div>
  );
}

function FileFrame({
  documentId,
  fileName,
  zoom,
  rotation,
  onRetry,
}: {
  documentId: string;
  fileName: string;
  zoom: Zoom;
  rotation: Rotation;
  onRetry: () => void;
}) {
  const file = useDocumentFile(documentId, fileName);
  const frameRef = useRef<HTMLDivElement>(null);
  const frame = useFrameSize(frameRef);
  return (
    <div
      ref={frameRef}
      data-testid="review-file"
      data-state={file.status}
      data-zoom={String(zoom)}
      data-rotation={rotation}
      className="flex h-[50dvh] min-h-64 overflow-auto rounded-md border bg-muted/40 lg:h-[calc(100dvh-15rem)]"
    >
      {file.status === 'loading' ? (
        <p className="m-auto flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
          Loading file…
        </p>
      ) : file.status === 'error' ? (
        <div role="alert" className="m-auto flex max-w-sm flex-col items-center gap-3 p-6 text-center">
          <FileWarning className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm font-medium">The file is not available</p>
          <p className="text-sm break-words text-muted-foreground">{file.message}</p>
          <Button variant="outline" size="sm" onClick={onRetry}>
            <RotateCcw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : file.kind === 'none' ? (
        <div className="m-auto flex max-w-sm flex-col items-center gap-2 p-6 text-center">
          <FileWarning className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm text-muted-foreground">This browser cannot show this kind of file. Open it from the Documents screen to download it.</p>
        </div>
      ) : frame ? (
        <FileDrawing url={file.url} kind={file.kind} label={`Preview of ${fileName}`} zoom={zoom} rotation={rotation} frame={frame} />
      ) : null}
    </div>
  );
}
