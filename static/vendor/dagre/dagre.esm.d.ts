// Types for the vendored dagre build, so `tsc --checkJs` checks our calls without
// type-checking dagre's minified code. Only what static/js/ uses.
declare namespace dagre {
  namespace graphlib {
    class Graph {
      constructor(options?: { multigraph?: boolean; compound?: boolean; directed?: boolean });
      setGraph(label: Record<string, unknown>): Graph;
      setDefaultEdgeLabel(callback: () => Record<string, unknown>): Graph;
      setNode(name: string, label: Record<string, unknown>): Graph;
      setEdge(source: string, target: string, label?: Record<string, unknown>, name?: string): Graph;
      node(name: string): { x: number; y: number; width: number; height: number };
      edge(source: string, target: string, name?: string): { points: Array<{ x: number; y: number }> };
      graph(): { width?: number; height?: number };
      nodes(): string[];
      edges(): Array<{ v: string; w: string; name?: string }>;
    }
  }
  function layout(graph: graphlib.Graph): void;
}
export default dagre;
