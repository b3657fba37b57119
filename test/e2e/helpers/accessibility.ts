import type { Page } from 'playwright-core';

/** Roles a user operates; each needs a name, or a screen reader announces it by its role alone. */
const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
]);

/** The page's visible controls to which Chromium's accessibility tree gives no name, each as its role and HTML tag. */
export async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const unnamed = nodes.filter(
      (node) => !node.ignored && CONTROL_ROLES.has(String(node.role?.value)) && !String(node.name?.value ?? '').trim(),
    );
    const described: string[] = [];
    for (const node of unnamed) {
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId });
      const tag = await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: 'function () { return this.outerHTML.slice(0, 120); }',
        returnByValue: true,
      });
      described.push(`${String(node.role?.value)} ${String(tag.result.value)}`);
    }
    return described;
  } finally {
    await cdp.detach();
  }
}

/** What sticks out past the viewport's right edge and makes the page scroll sideways (nothing when it fits). */
export function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .map((element) => `${element.tagName.toLowerCase()} ${(element.textContent ?? '').trim().slice(0, 30)}`);
  });
}
