/**
 * The harness's tools inside every sandbox container (sandbox/tools/bundle.sh): programs with their
 * own loader and libraries, and python with its standard library, at one fixed place. The sandbox
 * image carries them there; a Harbor task's own image gets them as a read-only volume mounted at the
 * same place (harbor/tools-volume.ts). Whatever the harness runs in a container is named by its
 * path here, never looked up on the image's PATH: the image need have nothing but a kernel.
 */
export const TOOLS_DIR = '/opt/agent-bench';
const TOOLS_BIN = `${TOOLS_DIR}/bin`;

type Tool = 'bash' | 'sh' | 'python3' | 'sleep' | 'tar' | 'true' | 'cp' | 'mkdir' | 'timeout' | 'tail';

/** A tool's absolute path in the bundle. */
export function tool(name: Tool): string {
  return `${TOOLS_BIN}/${name}`;
}

/** The environment a harness script runs in: its PATH finds the bundle's programs and nothing else. */
export const TOOLS_ENV: Readonly<Record<string, string>> = { PATH: TOOLS_BIN };

/** The exec wrapper (sandbox/exec-wrapper.sh), and the python packages the bundle's python loads. */
export const WRAPPER_PATH = `${TOOLS_DIR}/exec-wrapper`;
export const REPORT_DIR = `${TOOLS_DIR}/report`;
export const RELAY_DIR = `${TOOLS_DIR}/relay`;
/**
 * Offline stand-ins for a verifier's network tools (uv, uvx, curl, wget: sandbox/verifier-bin/),
 * the last entry of a Harbor verifier's PATH, so a tool the image has always wins.
 */
export const VERIFIER_BIN = `${TOOLS_DIR}/verifier-bin`;
