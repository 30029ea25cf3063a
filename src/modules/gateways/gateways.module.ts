import type { GatewayKeys } from '../../http/gateway-callers.ts';
import type { App } from '../../http/types.ts';
import type { ReadingsIngest } from '../timeseries/timeseries.model.ts';
import { registerGatewayRoutes } from './gateways.routes.ts';
import { createGatewaysService, type GatewaysDeps } from './gateways.service.ts';
import { createMqttReadings } from './mqtt-readings.ts';

export { createGatewayKeys } from './gateway-keys.ts';

/** Gateways: their keys, and the readings they publish over MQTT when the service has a broker (mqtt.url). */
export function registerGatewaysModule(
  app: App,
  deps: GatewaysDeps & {
    keys: GatewayKeys;
    readings: ReadingsIngest;
    mqtt: { url: string | undefined; clientId: string };
  },
): void {
  registerGatewayRoutes(app, createGatewaysService(deps));
  const { url, clientId } = deps.mqtt;
  if (!url) return;
  const subscriber = createMqttReadings({ url, clientId, keys: deps.keys, readings: deps.readings, log: app.log });
  app.addHook('onReady', () => subscriber.start());
  app.addHook('onClose', () => subscriber.stop());
}
