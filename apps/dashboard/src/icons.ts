import { registerIconLibrary } from '@awesome.me/webawesome/dist/components/icon/library.js';

/**
 * Every icon from this origin: the build writes Web Awesome's system icons to /dashboard/icons,
 * and both libraries resolve there (the default library would fetch from a third-party CDN, which
 * the Content-Security-Policy forbids anyway).
 */
export function registerLocalIcons(): void {
  const resolver = (name: string, _family: string, variant: string) =>
    `/dashboard/icons/${variant === 'regular' ? 'regular' : 'solid'}-${name}.svg`;
  const mutator = (svg: SVGElement) => {
    if (!svg.hasAttribute('fill')) svg.setAttribute('fill', 'currentColor');
  };
  registerIconLibrary('system', { resolver, mutator });
  registerIconLibrary('default', { resolver, mutator });
}
