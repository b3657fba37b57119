import type { Ports, ServiceName } from './ports.ts';
import { assertPortFree, type ServiceProcess } from './process.ts';
import type { ServiceRecipe } from './services.ts';

/**
 * The running services of a stack: started one at a time (each waited for until ready), stopped in reverse; an
 * agent's Worker, once stopped, signs its agent inactive.
 */
export interface Supervisor {
  start(name: ServiceName): Promise<void>;
  stop(name: ServiceName): Promise<void>;
  isRunning(name: ServiceName): boolean;
  processGroup(name: ServiceName): number | undefined;
  stopAll(): Promise<void>;
}

export function superviseServices(
  recipes: Record<ServiceName, ServiceRecipe>,
  ports: Ports,
  urls: Record<ServiceName, string>,
  progress: (line: string) => void,
): Supervisor {
  const running = new Map<ServiceName, ServiceProcess>();
  const order: ServiceName[] = [];
  const supervisor: Supervisor = {
    async start(name) {
      if (running.has(name)) return;
      progress(`starting ${name} on ${urls[name]}`);
      await assertPortFree(name, ports[name]);
      running.set(name, recipes[name].spawn());
      order.push(name);
      try {
        await recipes[name].ready(running.get(name)!);
      } catch (error) {
        await supervisor.stop(name);
        throw error;
      }
    },
    async stop(name) {
      const service = running.get(name);
      if (!service) return;
      running.delete(name);
      order.splice(order.indexOf(name), 1);
      await service.stop();
      await recipes[name].stopped?.();
    },
    isRunning: (name) => running.has(name),
    // spawnService starts each service detached: the leader of its own group, whose id is its pid.
    processGroup: (name) => running.get(name)?.child.pid,
    async stopAll() {
      for (const name of [...order].reverse()) await supervisor.stop(name);
    },
  };
  return supervisor;
}
