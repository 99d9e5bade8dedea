// A localhost HTTPS certificate for the development server that needs neither sudo nor
// network: a local CA and a localhost certificate it signs, kept in .certs/ (ignored by
// git). Certificates made by office-addin-dev-certs are used when they exist. To load
// the add-in in Excel, trust the CA once (the start script prints how).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { generate } from "selfsigned";

export interface DevCertificate {
  key: string;
  cert: string;
  caPath: string;
}

const DAY_MS = 86_400_000;

function fromDir(dir: string, caName: string): DevCertificate | null {
  const keyPath = path.join(dir, "localhost.key");
  const certPath = path.join(dir, "localhost.crt");
  const caPath = path.join(dir, caName);
  if (!existsSync(keyPath) || !existsSync(certPath) || !existsSync(caPath)) return null;
  return { key: readFileSync(keyPath, "utf8"), cert: readFileSync(certPath, "utf8"), caPath };
}

export async function ensureDevCertificate(projectRoot: string): Promise<DevCertificate> {
  const officeCerts = fromDir(path.join(homedir(), ".office-addin-dev-certs"), "ca.crt");
  if (officeCerts) return officeCerts;
  const dir = path.join(projectRoot, ".certs");
  const existing = fromDir(dir, "pcd-dev-ca.crt");
  if (existing) return existing;

  const now = Date.now();
  const ca = await generate([{ name: "commonName", value: "PCD development CA (this machine only)" }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + 825 * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + 397 * DAY_MS),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "pcd-dev-ca.crt"), ca.cert);
  writeFileSync(path.join(dir, "localhost.key"), server.private, { mode: 0o600 });
  writeFileSync(path.join(dir, "localhost.crt"), server.cert);
  return { key: server.private, cert: server.cert, caPath: path.join(dir, "pcd-dev-ca.crt") };
}
