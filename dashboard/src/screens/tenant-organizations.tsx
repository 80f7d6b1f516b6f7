import type { ScreenProps } from '../screens.ts';
import { Page } from '../ui.tsx';

export default function Screen(_props: ScreenProps) {
  return <Page title="tenant-organizations">Not built yet.</Page>;
}
