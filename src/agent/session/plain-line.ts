/** Text safe to print on one terminal line: escape sequences removed, control characters and runs of space as one space. */
export function toPlainLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- terminal escape sequences (CSI and OSC) are what is removed
      .replace(/\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/g, '')
      // eslint-disable-next-line no-control-regex -- and any other control character
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
