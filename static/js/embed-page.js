/**
 * The entry of `/embed`, the player in an iframe on a course page: framed-player.js
 * does it all (options from the address, height and frame messages, the editor when
 * asked for); the quiz's scores go to the parent window.
 */
import { mountFramedPlayer } from "./hosts/framed-player.js";

mountFramedPlayer().start();
