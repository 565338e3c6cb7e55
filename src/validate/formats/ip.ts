const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** RFC 2673 dotted-quad IPv4 address: four decimal octets, no leading zeros. */
export const isIpv4 = (value: string): boolean => IPV4.test(value);

/** RFC 4291 IPv6 address: eight hex groups, one `::` elision, an optional trailing IPv4; no zone. */
export function isIpv6(value: string): boolean {
  let text = value;
  let groups = 0;
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.indexOf('.', lastColon) > lastColon) {
    if (!isIpv4(text.slice(lastColon + 1))) return false;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  for (const half of halves) {
    if (half === '') continue;
    for (const group of half.split(':')) {
      if (!HEX_GROUP.test(group)) return false;
      groups++;
    }
  }
  return halves.length === 2 ? groups <= 7 : groups === 8;
}
