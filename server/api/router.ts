import type { ApiRoute } from "./route";
import { percentDecoded } from "#server/http/requests/percent-decode";

/** Every route of one path, by method, and what the path's Allow header says. */
export interface PathEntry {
  path: string;
  routes: Map<string, ApiRoute>;
  /** The declared methods in the table's order, for a 405's message. */
  methods: string[];
  allow: string;
}

interface Node {
  children: Map<string, Node>;
  param?: { name: string; node: Node };
  splat?: PathEntry;
  entry?: PathEntry;
}

export interface Match {
  entry: PathEntry;
  params: Record<string, string>;
}

const newNode = (): Node => ({ children: new Map() });

/** GET implies HEAD; OPTIONS is always answered. */
function allowOf(methods: string[]): string {
  return [...methods.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])), "OPTIONS"].join(", ");
}

function segmentsOf(pathname: string): string[] {
  const segments = pathname.split("/").slice(1);
  // A trailing slash names the same resource, as it does in Remix's route matching.
  if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop();
  return segments;
}

/**
 * A segment tree over the table: a request costs one map lookup per path segment, however many
 * routes there are. Static segments win over a `:param`, which wins over a `*` splat; static
 * segments match without regard to case, as Remix's routes did.
 */
export class Router {
  private root = newNode();
  readonly entries: PathEntry[] = [];

  constructor(routes: ApiRoute[]) {
    for (const route of routes) this.add(route);
  }

  private add(route: ApiRoute) {
    let node = this.root;
    let entry: PathEntry | undefined;
    const segments = segmentsOf(route.path);
    for (const [index, segment] of segments.entries()) {
      if (segment === "*") {
        if (index !== segments.length - 1) throw new Error(`${route.path}: a splat must be the last segment.`);
        entry = node.splat ??= this.newEntry(route.path);
        break;
      }
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) throw new Error(`${route.path}: :${name} clashes with :${node.param.name}.`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        const key = segment.toLowerCase();
        let child = node.children.get(key);
        if (!child) node.children.set(key, (child = newNode()));
        node = child;
      }
    }
    entry ??= node.entry ??= this.newEntry(route.path);
    if (entry.path !== route.path) throw new Error(`${route.path} and ${entry.path} are the same path.`);
    if (entry.routes.has(route.method)) throw new Error(`${route.method} ${route.path} is declared twice.`);
    entry.routes.set(route.method, route);
    entry.methods.push(route.method);
    entry.allow = allowOf(entry.methods);
  }

  private newEntry(path: string): PathEntry {
    const entry: PathEntry = { path, routes: new Map(), methods: [], allow: "" };
    this.entries.push(entry);
    return entry;
  }

  match(pathname: string): Match | null {
    const params: Record<string, string> = {};
    const entry = this.walk(this.root, segmentsOf(pathname), 0, params);
    return entry ? { entry, params } : null;
  }

  private walk(node: Node, segments: string[], index: number, params: Record<string, string>): PathEntry | null {
    if (index === segments.length) return node.entry ?? node.splat ?? null;
    const segment = segments[index]!;
    const child = node.children.get(segment.toLowerCase());
    if (child) {
      const found = this.walk(child, segments, index + 1, params);
      if (found) return found;
    }
    if (node.param && segment !== "") {
      const value = decode(segment);
      if (value !== null) {
        const found = this.walk(node.param.node, segments, index + 1, params);
        if (found) {
          params[node.param.name] = value;
          return found;
        }
      }
    }
    if (node.splat) {
      const rest = decode(segments.slice(index).join("/"));
      if (rest !== null) {
        params["*"] = rest;
        return node.splat;
      }
    }
    return null;
  }
}

const decode = percentDecoded;
