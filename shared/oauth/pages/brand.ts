/** The application's name and logo at the top of the sign-in and consent pages (escaped here). */
import { escapeHtml } from '../../html-escape.ts';

export interface Brand {
  applicationName: string;
  /** An https URL (the management API accepts no other), or null. */
  logoUrl: string | null;
}

/** The CSP `img-src` sources the logo needs: its origin, or nothing without a usable https logo. */
export function logoSources(brand: Brand): string[] {
  const url = brand.logoUrl ? URL.parse(brand.logoUrl) : null;
  return url?.protocol === 'https:' ? [url.origin] : [];
}

export function brandHeader(brand: Brand): string {
  const logo =
    logoSources(brand).length > 0 && brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="">` : '';
  return `<div class="brand">${logo}<span>${escapeHtml(brand.applicationName)}</span></div>`;
}
