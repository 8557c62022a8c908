import { useContext } from 'react';
import { PlayerContext, type PlayerControls } from './player-context';
import { playerMessages } from './player-messages';

/** The controls and state of the app's one audio player; only inside PlayerProvider (§8 message otherwise). */
export function usePlayer(): PlayerControls {
  const controls = useContext(PlayerContext);
  if (!controls) throw new Error(playerMessages.outsideProvider);
  return controls;
}
